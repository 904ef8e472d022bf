import Glibc
import GymTimerHAL
import Testing
@testable import GymTimerHardware

@Suite struct I2CDevBusTests {
    @Test func nonI2CFileFailsTheAddressSelectionAsIO() throws {
        let bus = try I2CDevBus(path: "/dev/null")
        #expect(throws: HALError.io(device: "/dev/null", operation: "select address 0x70", errno: ENOTTY)) {
            try bus.write(address: 0x70, [0x21])
        }
    }
}
