"""The virtual table behind `cardtable simulate`: seeded players, a virtual dealer, injected dealer errors."""

from controller.sim.faults import FAULTS, Fault
from controller.sim.table import SimHand, VirtualTable

__all__ = ["FAULTS", "Fault", "SimHand", "VirtualTable"]
