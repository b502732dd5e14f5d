"""The table daemon: composition root, event journal, durable outbox, MQTT publisher, health, sd_notify."""
