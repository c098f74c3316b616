import CRegistry
