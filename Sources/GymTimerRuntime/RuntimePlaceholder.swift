// Replaced by the event loop.
