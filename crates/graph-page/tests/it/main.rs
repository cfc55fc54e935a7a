//! Tests of the page's data (aggregation, caps, escaping) and of its assets, one binary.

mod aggregation;
mod assets;
mod escaping;
mod records;
mod size;
