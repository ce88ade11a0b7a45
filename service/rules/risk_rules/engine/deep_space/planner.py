"""temporary"""
from risk_rules.engine.deep_space.bot import choose as choose
