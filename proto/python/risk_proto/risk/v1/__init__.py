"""Generated protobuf code for the risk.v1 contract. Do not edit."""
