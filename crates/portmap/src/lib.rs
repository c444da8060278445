//! Fastroute control plane (placeholder, see issue 3).
