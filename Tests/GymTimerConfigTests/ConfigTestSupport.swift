import GymTimerConfig

/// The problems `parse` reports for `toml`, or [] when it parses.
func problems(_ toml: String) -> [String] {
    do {
        _ = try GymTimerConfiguration.parse(toml)
        return []
    } catch {
        return error.problems
    }
}

/// The example file of config.md, verbatim.
let configMarkdownExample = """
    mode = "rest"                  # rest | interval | workout: the mode at start-up

    [rest]
    default_seconds = 90
    min_seconds = 15
    max_seconds = 300
    step_seconds = 15
    warning_seconds = 3            # 0 turns the 3-2-1 beeps off
    alarm_timeout_seconds = 30

    [interval]
    phase_seconds = 30
    sets = 8
    start_with = "low"             # low | high
    warning_seconds = 3
    announce_seconds = 3

    [workout]
    preset = "full-body"

    [[workout.presets]]
    name = "full-body"
    exercise_seconds = 30
    rest_seconds = 15
    calories = 150
    exercises = ["Jumping jacks", "Squats", "Push-ups", "Lunges", "Plank", "Burpees", "Mountain climbers", "Sit-ups"]
    """

/// The `[hardware]` section with every key at its documented default.
let hardwareExample = """
    [hardware]
    chip = "gpiochip0"           # gpiochip name or /dev path
    buttons_active_low = true    # buttons/encoder switch to ground
    bias = "pull-up"             # pull-up | pull-down | none
    debounce_ms = 10             # 1...30
    hold_ms = 2000               # 500...10000
    [hardware.lines]             # each a line name string ("GPIO17") or an integer offset (17)
    start = "GPIO17"
    dismiss = "GPIO27"
    encoder_a = "GPIO22"
    encoder_b = "GPIO23"
    encoder_switch = ""          # optional: empty = not fitted; acts as the start button
    buzzer = "GPIO18"
    led_ready = "GPIO5"
    led_rest = "GPIO6"
    led_alarm = "GPIO13"
    led_low = "GPIO19"
    led_high = "GPIO26"
    [hardware.display]
    type = "tm1637"              # tm1637 | ht16k33 | max7219 | none
    clk = "GPIO24"               # tm1637
    dio = "GPIO25"               # tm1637
    i2c_bus = 1                  # ht16k33: /dev/i2c-1
    address = 0x70               # ht16k33: 0x70...0x77
    spi_device = "/dev/spidev0.0"  # max7219
    brightness = 80              # percent 0...100
    [hardware.buzzer]
    type = "active"              # active | pwm
    pwm_chip = 0
    pwm_channel = 0
    frequency_hz = 2700          # 100...10000
    """
