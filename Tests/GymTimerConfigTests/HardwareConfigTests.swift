import GymTimerConfig
import Testing

@Suite struct HardwareConfigTests {
    @Test func aLineUsedTwiceIsOneProblemNamingBothKeys() {
        #expect(problems("[hardware.lines]\nbuzzer = \"GPIO17\"") == [
            "hardware.lines.buzzer = \"GPIO17\": already used by hardware.lines.start",
        ])
        #expect(problems("[hardware.lines]\nstart = 4\nled_high = 4") == [
            "hardware.lines.led_high = 4: already used by hardware.lines.start",
        ])
    }

    @Test func theDisplayClockAndDataCountAsLines() {
        #expect(problems("[hardware.display]\nclk = \"GPIO5\"") == [
            "hardware.display.clk = \"GPIO5\": already used by hardware.lines.led_ready",
        ])
        #expect(problems("[hardware.display]\ndio = \"GPIO24\"") == [
            "hardware.display.dio = \"GPIO24\": already used by hardware.display.clk",
        ])
        // Another display type does not use them.
        #expect(problems("[hardware.display]\ntype = \"ht16k33\"\nclk = \"GPIO5\"") == [])
    }

    @Test func theEncoderSwitchCountsOnlyWhenFitted() {
        #expect(problems("[hardware.lines]\nencoder_switch = \"GPIO27\"") == [
            "hardware.lines.encoder_switch = \"GPIO27\": already used by hardware.lines.dismiss",
        ])
    }

    @Test func aDisplayWithoutItsBusIsOneProblemPerKey() {
        #expect(problems("[hardware.display]\ntype = \"tm1637\"\nclk = \"\"") == [
            "hardware.display.clk: required when hardware.display.type = \"tm1637\"",
        ])
        #expect(problems("[hardware.display]\ntype = \"max7219\"\nspi_device = \"\"") == [
            "hardware.display.spi_device: required when hardware.display.type = \"max7219\"",
        ])
    }

    @Test(arguments: [
        ("start = \"\"", "hardware.lines.start = \"\": must be a line name like \"GPIO17\" or an offset like 17"),
        ("dismiss = -1", "hardware.lines.dismiss = -1: must be a line name like \"GPIO17\" or an offset like 17"),
        ("led_rest = true", "hardware.lines.led_rest = true: must be a line name like \"GPIO17\" or an offset like 17"),
        ("strat = 4", "hardware.lines.strat: unknown key"),
        ("led_alram = 4", "hardware.lines.led_alram: unknown key (did you mean hardware.lines.led_alarm?)"),
    ])
    func badLines(line: String, message: String) {
        #expect(problems("[hardware.lines]\n" + line) == [message])
    }
}
