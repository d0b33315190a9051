"""Demo data: a 32-team FUBA World Cup, part played, built only through the services.

Used by `manage.py load_demo` (so `make run` shows every page filled) and by the page, API and
browser tests. Results go through the real workflow: a club submits, the opponent confirms; a few
fixtures are simulated by the rules engine (with a real turn log to replay), one is disputed and
one awaits confirmation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction

from kernel.errors import ApplicationError
from matches import forfeits
from matches import services as results
from tournaments.bracket import Score
from tournaments.models import Competition, Fixture, Skill, Stage, Team
from tournaments.services.clubs import club_create, coach_create, team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.skills import team_skills_set

User = get_user_model()

DEMO_SLUG = "fuba-world-cup-demo"
DEMO_ADMIN = ("admin", "fuba-demo-admin")
CLUB_PASSWORD = "fuba-demo-club"  # noqa: S105 - demo accounts on a local demo database only

# Eight groups of four, in the spirit of a World Cup draw: (team, coach, coach country).
GROUPS: dict[str, list[tuple[str, str]]] = {
    "A": [
        ("Brazil", "Ana Souza"),
        ("Serbia", "Marko Ilic"),
        ("Switzerland", "Lea Keller"),
        ("Cameroon", "Paul Eto"),
    ],
    "B": [
        ("Germany", "Jonas Weber"),
        ("Japan", "Yuki Sato"),
        ("Spain", "Lucia Garcia"),
        ("Costa Rica", "Diego Mora"),
    ],
    "C": [
        ("Argentina", "Martin Diaz"),
        ("Poland", "Piotr Nowak"),
        ("Mexico", "Sofia Lopez"),
        ("Saudi Arabia", "Omar Aziz"),
    ],
    "D": [
        ("France", "Claire Martin"),
        ("Australia", "Jack Wilson"),
        ("Denmark", "Freja Madsen"),
        ("Tunisia", "Sami Ben Ali"),
    ],
    "E": [
        ("England", "Tom Clarke"),
        ("USA", "Maya Brooks"),
        ("Iran", "Reza Karimi"),
        ("Wales", "Owen Evans"),
    ],
    "F": [
        ("Belgium", "Lotte Peeters"),
        ("Canada", "Noah Tremblay"),
        ("Morocco", "Yassine Alaoui"),
        ("Croatia", "Ivan Horvat"),
    ],
    "G": [
        ("Portugal", "Rui Costa"),
        ("Ghana", "Kofi Mensah"),
        ("Uruguay", "Lucas Pereira"),
        ("South Korea", "Min-jun Kim"),
    ],
    "H": [
        ("Netherlands", "Daan de Vries"),
        ("Senegal", "Awa Diop"),
        ("Ecuador", "Carla Vera"),
        ("Qatar", "Hamad Al-Thani"),
    ],
}
FORMATIONS = ("4-4-2", "4-3-3", "3-5-2", "4-5-1", "5-3-2")
# Days from the first kick-off to the round of 16 (after three group matchdays 4 days apart).
ROUND_OF_16_DAY = 14


@dataclass
class Demo:
    competition: Competition
    groups_stage: Stage
    knockout: Stage
    teams: dict[str, Team] = field(default_factory=dict)
    users: dict[str, Any] = field(default_factory=dict)  # team name → club user
    admin: Any = None
    simulated: list[int] = field(default_factory=list)
    disputed: list[int] = field(default_factory=list)
    submitted: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    created: bool = True


def club_username(team_name: str) -> str:
    return "club-" + team_name.lower().replace(" ", "-")


_HASHES: dict[str, str] = {}


def _user(username: str, password: str, *, staff: bool = False) -> Any:
    user, created = User.objects.get_or_create(
        username=username, defaults={"is_staff": staff, "is_superuser": staff}
    )
    if created:
        # One hash per password: hashing is deliberately slow and the 32 club accounts share one.
        if password not in _HASHES:
            _HASHES[password] = make_password(password)
        user.password = _HASHES[password]
        user.save(update_fields=["password"])
    return user


def ensure_admin() -> Any:
    return _user(DEMO_ADMIN[0], DEMO_ADMIN[1], staff=True)


class _Player:
    """Plays fixtures through the services, deterministically (one seeded RNG)."""

    def __init__(self, demo: Demo, seed: int) -> None:
        self.demo = demo
        self.rng = random.Random(seed)

    def _refresh(self, fixture: Fixture) -> Fixture:
        return Fixture.objects.select_related("stage", "home_team", "away_team").get(pk=fixture.pk)

    def score(self, knockout: bool) -> tuple[Score, list[dict[str, Any]]]:
        h, a = self.rng.choice((0, 0, 1, 1, 1, 2, 2, 3)), self.rng.choice((0, 0, 1, 1, 2, 2, 3))
        score = Score(h, a)
        if knockout and h == a:
            ph = self.rng.choice((3, 4, 5))
            score = Score(
                h, a, extra_time=True, home_penalties=ph, away_penalties=ph - self.rng.choice((1, 2))
            )
        cards: list[dict[str, Any]] = []
        for side in ("home", "away"):
            cards += [{"team": side, "kind": "yellow"}] * self.rng.choice((0, 0, 1, 1, 2))
        if self.rng.random() < 0.06:
            cards.append({"team": self.rng.choice(("home", "away")), "kind": "red"})
        return score, cards

    def confirmed(self, fixture: Fixture) -> None:
        fixture = self._refresh(fixture)
        knockout = fixture.stage.kind == Stage.Kind.KNOCKOUT
        assert fixture.home_team is not None and fixture.away_team is not None
        score, cards = self.score(knockout)
        results.result_submit(
            fixture_id=fixture.pk, user=self.demo.users[fixture.home_team.name], score=score, cards=cards
        )
        results.result_confirm(fixture_id=fixture.pk, user=self.demo.users[fixture.away_team.name])

    def simulated(self, fixture: Fixture) -> None:
        """Decided the way a missed deadline is: a forfeit simulated by the rules engine.

        forfeit_simulate_now queues the task on commit; processing it here as well makes the demo
        independent of a worker (the queued task then finds the work done: it is idempotent).
        """
        try:
            forfeits.forfeit_simulate_now(fixture_id=fixture.pk, user=self.demo.admin)
            forfeits.forfeit_process(fixture_id=fixture.pk, task_id="load-demo")
        except ApplicationError as exc:
            # The forfeit gives the fixture back on failure; the demo goes on with a played result
            # and reports the failure (it is a simulator bug worth seeing).
            self.demo.notes.append(f"simulation failed, played instead: {exc.message}")
            self.confirmed(fixture)
            return
        self.demo.simulated.append(fixture.pk)

    def disputed(self, fixture: Fixture) -> None:
        fixture = self._refresh(fixture)
        assert fixture.home_team is not None and fixture.away_team is not None
        results.result_submit(
            fixture_id=fixture.pk, user=self.demo.users[fixture.home_team.name], score=Score(2, 1)
        )
        results.result_dispute(
            fixture_id=fixture.pk,
            user=self.demo.users[fixture.away_team.name],
            reason="We won 1-2: the goal in turn 31 was offside (5.1) and the log shows it.",
        )
        self.demo.disputed.append(fixture.pk)

    def submitted(self, fixture: Fixture) -> None:
        fixture = self._refresh(fixture)
        assert fixture.home_team is not None
        results.result_submit(
            fixture_id=fixture.pk, user=self.demo.users[fixture.home_team.name], score=Score(1, 1)
        )
        self.demo.submitted.append(fixture.pk)


def build_world_cup(
    *,
    slug: str = DEMO_SLUG,
    name: str = "FUBA World Cup (demo)",
    play: bool = True,
    seed: int = 2026,
    start: datetime | None = None,
    complete_groups: str = "ABCDEFG",
    simulate_in: str = "BEG",
    knockout_ties: int = 5,
) -> Demo:
    """Create the demo World Cup. With play=True: groups A–G complete, group H part played (one
    disputed result, one awaiting confirmation), simulated matches, and part of the round of 16.
    Without ``start`` it is dated from today (``demo_start``), so it looks in progress."""
    start = start or demo_start()
    with transaction.atomic():
        competition = competition_create(
            name=name,
            slug=slug,
            is_world_cup=True,
            advanced_rules=["A1", "A11"],
            yellow_card_threshold=2,
            red_card_ban_matches=1,
        )
        demo_teams, users, groups = _create_teams(competition)
        _give_skills(list(demo_teams.values()), seed)
        groups_stage = stage_create(
            competition=competition,
            name="Group stage",
            kind=Stage.Kind.GROUPS,
            groups=groups,
            advance_per_group=2,
        )
        knockout = stage_create(
            competition=competition, name="Knockout stage", kind=Stage.Kind.KNOCKOUT, third_place_match=True
        )
        fixture_generate(
            stage=groups_stage, start=start, interval=timedelta(days=4), deadline_after=timedelta(days=3)
        )
        fixture_generate(
            stage=knockout,
            start=start + timedelta(days=ROUND_OF_16_DAY),
            interval=timedelta(days=4),
            deadline_after=timedelta(days=3),
        )
    demo = Demo(
        competition=competition, groups_stage=groups_stage, knockout=knockout, teams=demo_teams, users=users
    )
    demo.admin = ensure_admin()
    if play:
        play_demo(
            demo,
            seed=seed,
            complete_groups=complete_groups,
            simulate_in=simulate_in,
            knockout_ties=knockout_ties,
        )
    return demo


def _create_teams(competition: Competition) -> tuple[dict[str, Team], dict[str, Any], dict[str, list[Team]]]:
    """The 32 teams of GROUPS, each with its club, its club member (a demo user) and its coach:
    (teams by name, users by team name, teams by group)."""
    demo_teams: dict[str, Team] = {}
    users: dict[str, Any] = {}
    groups: dict[str, list[Team]] = {}
    seed_no = 0
    for group, entries in GROUPS.items():
        groups[group] = []
        for i, (team_name, coach_name) in enumerate(entries):
            seed_no += 1
            club = club_create(name=f"{team_name} FUBA Club", country=team_name)
            user = _user(club_username(team_name), CLUB_PASSWORD)
            club.members.add(user)
            coach = coach_create(
                name=coach_name,
                country=team_name,
                club=club,
                ranking_id=f"FUBA-{seed_no:04d}",
                played_world_cup_2019=i == 0,
            )
            team = team_create(
                competition=competition,
                name=team_name,
                coach=coach,
                club=club,
                country=team_name,
                seed=i + 1,
                default_formation=FORMATIONS[seed_no % len(FORMATIONS)],
            )
            demo_teams[team_name] = team
            users[team_name] = user
            groups[group].append(team)
    return demo_teams, users, groups


def demo_start(today: datetime | None = None) -> datetime:
    """The first kick-off, so that loading the demo shows a World Cup in progress on the day it is
    loaded: the groups (three matchdays 4 days apart, 3 days to report) are behind, the round of 16
    kicked off yesterday and its open ties are due in two days, the later rounds are to come."""
    today = (today or datetime.now(UTC)).astimezone(UTC)
    return today.replace(hour=16, minute=0, second=0, microsecond=0) - timedelta(days=ROUND_OF_16_DAY + 1)


def _give_skills(teams: list[Team], seed: int) -> None:
    """Three A11 skills per team, chosen through the skills service (which checks eligibility)."""
    catalog = list(Skill.objects.filter(counts_as_two=False, restriction="").order_by("name"))
    if len(catalog) < 3:
        return
    rng = random.Random(seed)
    for team in teams:
        team_skills_set(team=team, skills=rng.sample(catalog, 3))


def play_demo(
    demo: Demo,
    *,
    seed: int,
    complete_groups: str = "ABCDEFG",
    simulate_in: str = "BEG",
    knockout_ties: int = 5,
) -> None:
    """Play the groups in `complete_groups` to the end (round-2 odd-numbered matches of the groups in
    `simulate_in` are simulated), group H to its last matchday (one disputed result, one awaiting
    confirmation), then `knockout_ties` round-of-16 ties whose teams are known."""
    player = _Player(demo, seed)
    group_fixtures = list(
        Fixture.objects.filter(stage=demo.groups_stage)
        .select_related("group")
        .order_by("round", "match_number")
    )
    for f in group_fixtures:
        assert f.group is not None
        name = f.group.name
        if name == "H":
            if f.round < 3:
                player.confirmed(f)
            elif not demo.disputed:
                player.disputed(f)
            else:
                player.submitted(f)
        elif name not in complete_groups:
            continue
        elif f.round == 2 and name in simulate_in and f.match_number and f.match_number % 2:
            player.simulated(f)
        else:
            player.confirmed(f)
    if not knockout_ties:
        return
    # Round of 16: the ties fed only by complete groups are decided; group H's are still open.
    r16 = list(
        Fixture.objects.filter(
            stage=demo.knockout, round=1, home_team__isnull=False, away_team__isnull=False
        ).order_by("match_number")
    )
    for i, f in enumerate(r16[:knockout_ties]):
        if i == 2:
            player.simulated(f)
        else:
            player.confirmed(f)
