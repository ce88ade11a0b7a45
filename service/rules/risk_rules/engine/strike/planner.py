"""temporary"""
from risk_rules.engine.strike.bot import choose as choose
