"""The reader-hub link: wire codec, host transport, MicroPython firmware and a pty emulator (PROTOCOL.md)."""
