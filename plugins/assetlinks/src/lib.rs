//! Digital Asset Links (assetlinks.json) probe
