"""Text boards for variants other than classic, one module each: protobuf in, text out."""
