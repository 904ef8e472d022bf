import GymTimerConfig
import GymTimerCore
import Testing

/// `[hardware] nfc` (the card reader) and `[athletes]` (how long a station keeps who tapped in).
@Suite struct AthleteConfigTests {
    @Test func aReaderIsOptionalAndTakesLibnfcsPN532Addresses() throws {
        #expect(GymTimerConfiguration.defaults.hardware.nfc == nil)
        for address in ["pn532_i2c:/dev/i2c-1", "pn532_uart:/dev/serial0", "pn532_uart:/dev/ttyUSB0:115200", "pn532_spi:/dev/spidev0.1"] {
            let configuration = try GymTimerConfiguration.parse("[hardware]\nnfc = \"\(address)\"")
            #expect(configuration.hardware.nfc?.connstring == address)
        }
    }

    @Test func aMistypedReaderIsAConfigProblemNotASilentReader() {
        #expect(problems("[hardware]\nnfc = \"pn532:/dev/i2c-1\"") == [
            "hardware.nfc = \"pn532:/dev/i2c-1\": must be a driver and a port: \"pn532_i2c:/dev/…\", \"pn532_uart:/dev/…\", \"pn532_spi:/dev/…\"",
        ])
        #expect(problems("[hardware]\nnfc = \"pn532_i2c:i2c-1\"") == [
            "hardware.nfc = \"pn532_i2c:i2c-1\": the port must be an absolute device path, like /dev/i2c-1",
        ])
        #expect(problems("[hardware]\nnfc = \"pn532_i2c:/dev/i2c-1:9600\"") == [
            "hardware.nfc = \"pn532_i2c:/dev/i2c-1:9600\": only pn532_uart takes a third part, its speed in baud (9600…921600)",
        ])
        #expect(problems("[hardware]\nnfc = 7") == ["hardware.nfc = 7: must be a string"])
        #expect(problems("[hardware]\nnfc = \"pn532_uart:/dev/tty S0\"").count == 1, "no space, no control character in a port")
    }

    @Test func theIdleTimeOutIsInMinutesWithinItsRange() throws {
        #expect(GymTimerConfiguration.defaults.kiosk.athletes.idleTimeout == .seconds(600))
        #expect(try GymTimerConfiguration.parse("[athletes]\nidle_minutes = 25").kiosk.athletes.idleTimeout == .seconds(1500))
        #expect(problems("[athletes]\nidle_minutes = 0") == ["athletes.idle_minutes = 0: must be between 1 and 240"])
        #expect(problems("[athletes]\nidle_minute = 5") == ["athletes.idle_minute: unknown key (did you mean athletes.idle_minutes?)"])
    }
}
