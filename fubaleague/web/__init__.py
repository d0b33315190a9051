"""The public pages: views, their reads (`selectors`), the SVG geometry and the URLs.

The pages sit above both apps: they read `tournaments` and `matches` through their models,
selectors and standings, and post results through `matches.services`; nothing below imports them.
"""
