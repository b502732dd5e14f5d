"""Pin map and defaults of the reader hub (Raspberry Pi Pico). Edit this file per table, then flash it.

All readers share SCK, MOSI, MISO and RST; each has its own chip-select (the module's SDA/NSS pin).
"""

SPI_ID = 0
SCK = 18  # GP18 = SPI0 SCK
MOSI = 19  # GP19 = SPI0 TX
MISO = 16  # GP16 = SPI0 RX (see README: every reader must release MISO when deselected)
BAUD = 4_000_000  # 4 MHz is safe over 30 cm ribbon cables; the MFRC522 allows 10 MHz
RST = 14  # GP14 -> every reader's RST (NRSTPD); held high while running
CS = (17, 20, 21, 22, 26, 27, 28, 15)  # reader 0..7 chip-selects, in zone-map order
MAINTENANCE = 13  # GP13 pulled to GND at power-up: skip the hub loop and stay at the REPL

SCAN_MS = 20  # one pass over all readers
ON_CYCLES = 1  # sightings before a tag counts as present
OFF_CYCLES = 3  # missed scans before a tag counts as removed
WATCHDOG_MS = 2000  # the RP2040 watchdog resets a hung hub (the host sees a new boot id)
