"""The floor screen: MQTT subscriber, alert store, and the web page the floor staff watch and answer from."""
