extension DeviceInterface {
    /// `/sys/class/pwm/pwmchipN`, made by the PWM overlay; Raspberry Pi OS gives its files to
    /// the `gpio` group.
    public static let pwm = DeviceInterface(
        group: "gpio",
        missingHint: "enable PWM with dtoverlay=pwm,pin=18,func=2 in /boot/firmware/config.txt "
            + "(the buzzer on GPIO18) and reboot"
    )
}
