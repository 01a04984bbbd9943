"""Tools: the LoCoMo evaluation (needs the ``[eval]`` extra for plots) and gate calibration."""
