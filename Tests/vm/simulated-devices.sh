# Sourced by the VM's init scripts (busybox sh or dash): loads the kernel's simulated devices
# and sets CHIP (gpiochipN), SIM (its sysfs dir) and I2CBUS. The caller defines fail().
#   gpio-sim: one 28-line bank named GPIO0..GPIO27, as gpioinfo shows the Pi's header lines;
#   i2c-stub: answering at the HT16K33's 0x70, with i2c-dev;  snd-aloop: a loopback sound card.
for m in configfs gpio-sim i2c-dev snd-aloop; do modprobe $m || fail "modprobe $m"; done
modprobe i2c-stub chip_addr=0x70 || fail "modprobe i2c-stub"
grep -q configfs /proc/mounts || mount -t configfs none /sys/kernel/config || fail "mount configfs"

G=/sys/kernel/config/gpio-sim/gymtimer
mkdir $G $G/bank0 && echo 28 > $G/bank0/num_lines && echo pinctrl-sim > $G/bank0/label
i=0; while [ $i -lt 28 ]; do mkdir $G/bank0/line$i && echo GPIO$i > $G/bank0/line$i/name; i=$((i+1)); done
echo 1 > $G/live || fail "gpio-sim live"
CHIP=$(cat $G/bank0/chip_name); SIM=/sys/devices/platform/$(cat $G/dev_name)/$CHIP
I2CBUS=$(for d in /sys/bus/i2c/devices/i2c-*; do grep -q stub $d/name && basename $d; done | head -1)
I2CBUS=${I2CBUS#i2c-}
echo "vm: kernel $(uname -r), gpio-sim $CHIP ($SIM), i2c-stub on bus $I2CBUS, cards: $(head -1 /proc/asound/cards)"
