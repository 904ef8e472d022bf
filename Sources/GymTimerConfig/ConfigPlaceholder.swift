// Replaced by the config parser.
