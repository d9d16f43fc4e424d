"""One checker per framework, observing its own promotion decisions cell by cell."""
