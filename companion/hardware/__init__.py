"""Hardware behind small interfaces; every real device has a fake that is its peer."""
