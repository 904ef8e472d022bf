import Glibc
import GymTimerHAL
import Testing
@testable import GymTimerHardware

@Suite struct SystemErrorTests {
    @Test func missingI2CBusSaysHowToEnableIt() {
        #expect {
            _ = try I2CDevBus(bus: 99)
        } throws: { error in
            guard case HALError.noSuchDevice(let device, let hint) = error else { return false }
            return device == "/dev/i2c-99" && hint.contains("dtparam=i2c_arm=on")
                && "\(error)".contains("dtparam=i2c_arm=on") && "\(error)".contains("reboot")
        }
    }

    @Test func missingSPIDeviceSaysHowToEnableIt() {
        #expect {
            _ = try SPIDevDevice(bus: 9, chipSelect: 9)
        } throws: { error in
            guard case HALError.noSuchDevice(let device, let hint) = error else { return false }
            return device == "/dev/spidev9.9" && hint.contains("dtparam=spi=on")
                && "\(error)".contains("raspi-config")
        }
    }

    @Test func permissionErrorsNameTheGroup() {
        for code in [EACCES, EPERM] {
            let error = HALError.fromErrno(code, device: "/dev/i2c-1", operation: "open", interface: .i2c)
            #expect(error == .permissionDenied(device: "/dev/i2c-1", group: "i2c"))
            #expect("\(error)".contains("usermod -aG i2c"))
        }
        let spi = HALError.fromErrno(EACCES, device: "/dev/spidev0.0", operation: "open", interface: .spi)
        #expect(spi == .permissionDenied(device: "/dev/spidev0.0", group: "spi"))
    }

    @Test func otherErrorsAreIOWithTheOperation() {
        let error = HALError.fromErrno(121, device: "/dev/i2c-1", operation: "write to 0x70", interface: .i2c)
        #expect(error == .io(device: "/dev/i2c-1", operation: "write to 0x70", errno: 121))
        #expect("\(error)".contains("EREMOTEIO"))
    }

    @Test func generalMappingTakesAnyGroupAndHint() {
        let error = HALError.fromErrno(ENOENT, device: "/dev/gpiochip9", operation: "open", group: "gpio", hint: "x")
        #expect(error == .noSuchDevice(device: "/dev/gpiochip9", hint: "x"))
    }

    @Test func nonDeviceFileFailsTheIoctlAsIO() {
        // /dev/null opens but is no spidev: the mode ioctl fails with ENOTTY, reported as I/O.
        #expect {
            _ = try SPIDevDevice(path: "/dev/null")
        } throws: { error in
            guard case HALError.io(let device, let operation, let code) = error else { return false }
            return device == "/dev/null" && operation == "set SPI mode 0" && code == ENOTTY
        }
    }
}
