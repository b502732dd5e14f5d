"""cardtable: controller for a smart poker table (RFID, tap sensor, camera, rules core, MQTT)."""

__version__ = "0.1.0"
