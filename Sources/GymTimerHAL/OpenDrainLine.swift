/// A bidirectional open-drain line for bit-banged buses (the TM1637's CLK and DIO): writing
/// `false` pulls the wire low, writing `true` releases it to the pull-up, and `read()` returns
/// the wire's actual level, so a peripheral pulling it low (an ACK) is seen.
public protocol OpenDrainLine: DigitalOutput, DigitalInput {}
