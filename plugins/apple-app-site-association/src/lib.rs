//! apple-app-site-association probe
