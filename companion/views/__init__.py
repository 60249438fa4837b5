"""Screens for the companion's 128x64 monochrome OLED."""
