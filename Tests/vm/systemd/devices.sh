#!/bin/sh
# ExecStart of vmtest-devices.service: brings up the simulated chips before gymtimer.service
# starts, as a Pi's own GPIO chip and I2C bus are there at boot, and waits for udev to apply
# install.sh's rules to them. Writes CHIP, SIM and I2CBUS for the test to /run/vmtest-devices.env.
fail() { echo "devices: $*"; exit 1; }
. /root/gymtimer/Tests/vm/simulated-devices.sh
udevadm settle --timeout=30
printf 'CHIP=%s\nSIM=%s\nI2CBUS=%s\n' "$CHIP" "$SIM" "$I2CBUS" > /run/vmtest-devices.env
