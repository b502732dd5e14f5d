"""Reader-hub firmware (MicroPython, Raspberry Pi Pico): hardware-free logic plus the MFRC522 driver."""
