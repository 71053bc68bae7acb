"""Benchmarks with their own runner (``pokertable bench --json``).

Each figure is measured beside a peer in the same run (for example PokerKit replaying the
same hands), because these machines are shared and noisy: a figure without its peer
means little. Speed is never asserted in the test suite.
"""
