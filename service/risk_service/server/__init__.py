"""The gRPC layer: thin servicers, the interceptor that logs and maps errors, app assembly."""
