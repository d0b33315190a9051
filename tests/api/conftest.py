# The API and page tests share their fixtures (a light World Cup, fast hashing, clean caches).
from tests.web_fixtures import _light_cup_rows, _module_cup, cup, fast_hashing_and_clean_cache

__all__ = ["_light_cup_rows", "_module_cup", "cup", "fast_hashing_and_clean_cache"]
