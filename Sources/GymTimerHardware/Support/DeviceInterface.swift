/// A kind of Linux device node the kiosk opens, with what a missing or forbidden node means
/// for it: the group whose members may open it and how to make the node appear.
public struct DeviceInterface: Hashable, Sendable {
    /// The group that owns the device nodes (`i2c`, `spi`, `gpio`, `audio`).
    public var group: String
    /// What to do when the node does not exist.
    public var missingHint: String

    public init(group: String, missingHint: String) {
        self.group = group
        self.missingHint = missingHint
    }

    /// `/dev/i2c-N`, made by the i2c-dev driver once the I2C controller is enabled.
    public static let i2c = DeviceInterface(
        group: "i2c",
        missingHint: "enable I2C with dtparam=i2c_arm=on in /boot/firmware/config.txt "
            + "(or sudo raspi-config → Interface Options → I2C) and reboot"
    )

    /// `/dev/spidevB.C`, made by the spidev driver once the SPI controller is enabled.
    public static let spi = DeviceInterface(
        group: "spi",
        missingHint: "enable SPI with dtparam=spi=on in /boot/firmware/config.txt "
            + "(or sudo raspi-config → Interface Options → SPI) and reboot"
    )

    /// `/dev/gpiochipN`, always present on a Raspberry Pi; missing means a wrong chip name.
    public static let gpio = DeviceInterface(
        group: "gpio",
        missingHint: "check the chip name in [hardware] (gpiodetect lists the chips)"
    )
}
