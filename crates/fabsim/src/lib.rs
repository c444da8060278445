//! fabsim simulator library.
