//! Request shape of the LINE#ID JSON edit dialect (seed 004).
