"""Where the SDK and the `risk` command look for the service when not told: its own module, so
the command line's parser can say it without importing the client (and gRPC)."""

DEFAULT_TARGET = "127.0.0.1:50051"
