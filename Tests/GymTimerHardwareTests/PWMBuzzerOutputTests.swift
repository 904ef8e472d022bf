import Foundation
import GymTimerHAL
import Testing
@testable import GymTimerHardware

/// The PWM buzzer's sysfs writes, against a temporary directory laid out like /sys/class/pwm.
@Suite struct PWMBuzzerOutputTests {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pwm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/pwmchip0", withIntermediateDirectories: true)
        for file in ["export", "unexport", "npwm"] { write("", "pwmchip0/\(file)") }
    }

    /// Makes `pwmchip0/pwm<channel>` with its attribute files, as the kernel does on export.
    func makeChannel(_ channel: Int) throws {
        try FileManager.default.createDirectory(atPath: root + "/pwmchip0/pwm\(channel)", withIntermediateDirectories: true)
        for file in ["period", "duty_cycle", "enable", "polarity"] { write("0\n", "pwmchip0/pwm\(channel)/\(file)") }
    }

    func write(_ text: String, _ path: String) {
        _ = FileManager.default.createFile(atPath: root + "/" + path, contents: Data(text.utf8))
    }

    func read(_ path: String) -> String {
        (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "<missing>"
    }

    @Test func setsUpTheToneDisabledAndSwitchesIt() throws {
        try makeChannel(1)
        let buzzer = try PWMBuzzerOutput(chip: 0, channel: 1, frequencyHz: 2500, root: root)
        #expect(buzzer.channelPath == root + "/pwmchip0/pwm1")
        #expect(read("pwmchip0/pwm1/period") == "400000\n")
        #expect(read("pwmchip0/pwm1/duty_cycle") == "200000\n")
        #expect(read("pwmchip0/pwm1/enable") == "0\n")
        #expect(read("pwmchip0/export") == "", "an exported channel is not exported again")
        try buzzer.write(true)
        #expect(read("pwmchip0/pwm1/enable") == "1\n")
        try buzzer.write(false)
        #expect(read("pwmchip0/pwm1/enable") == "0\n")
    }

    @Test func silencesTheBuzzerWhenReleased() throws {
        try makeChannel(0)
        var buzzer: PWMBuzzerOutput? = try PWMBuzzerOutput(chip: 0, channel: 0, frequencyHz: 2700, root: root)
        try buzzer?.write(true)
        #expect(read("pwmchip0/pwm0/enable") == "1\n")
        buzzer = nil
        #expect(read("pwmchip0/pwm0/enable") == "0\n")
    }

    @Test func exportsAMissingChannel() {
        // No kernel here makes pwm0 appear, so the export is written and its absence reported.
        #expect {
            _ = try PWMBuzzerOutput(chip: 0, channel: 0, frequencyHz: 2700, root: root)
        } throws: { error in
            guard case HALError.noSuchDevice(let device, let hint) = error else { return false }
            return device == root + "/pwmchip0/pwm0" && hint.contains("dtoverlay=pwm")
        }
        #expect(read("pwmchip0/export") == "0\n")
    }

    @Test func missingChipSaysWhichOverlayToEnable() {
        #expect {
            _ = try PWMBuzzerOutput(chip: 3, channel: 0, frequencyHz: 2700, root: root)
        } throws: { error in
            guard case HALError.noSuchDevice(let device, let hint) = error else { return false }
            return device == root + "/pwmchip3" && hint.contains("/boot/firmware/config.txt")
        }
    }

    @Test func forbiddenFileNamesTheGroup() throws {
        try makeChannel(0)
        let period = root + "/pwmchip0/pwm0/period"
        if getuid() == 0 {
            // Root may write any ordinary file, but not a read-only sysfs attribute: the kernel
            // refuses those with EACCES whoever asks, as it does a Pi's PWM files to a user
            // outside the gpio group.
            try FileManager.default.removeItem(atPath: period)
            try FileManager.default.createSymbolicLink(atPath: period, withDestinationPath: "/sys/devices/system/cpu/online")
        } else {
            chmod(period, 0o444)
        }
        #expect(throws: HALError.permissionDenied(device: root + "/pwmchip0/pwm0/period", group: "gpio")) {
            _ = try PWMBuzzerOutput(chip: 0, channel: 0, frequencyHz: 2700, root: root)
        }
    }
}
