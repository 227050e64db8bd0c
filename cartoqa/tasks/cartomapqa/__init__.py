"""The CartoMapQA tasks, built from an OSM extract scenario by scenario, each with its rules."""
