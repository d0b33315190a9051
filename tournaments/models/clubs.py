"""Clubs and their coaches: who plays in the league."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    country = models.CharField(max_length=60, blank=True)
    # "A club may act only on its own fixtures": membership is what the services check.
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="fuba_clubs", blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Coach(models.Model):
    """The person playing the board game."""

    name = models.CharField(max_length=120)
    country = models.CharField(max_length=60)
    ranking_id = models.CharField(max_length=40, blank=True)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="coaches")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="fuba_coaches",
    )
    # A11 footnote 3: Catenaccio "can be used in World Cup tournaments only if the player took part
    # in the FUBA World Cup 2019 in Milan, Italy".
    played_world_cup_2019 = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "coaches"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ranking_id"], condition=~Q(ranking_id=""), name="coach_ranking_id_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.country})"
