"""Following a match: the feed grouped by turn, the key moments with the shots' outcomes, and the
replay's goal and card marks (matchplay.narrate, matches.replay, the live panel's story.json)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import Client

from matches.replay import MARK_KINDS, match_story, replay_frames
from matches.replay import _notes as replay_notes
from matchplay.match_feed import key_moments, shot_outcomes, turn_feed
from rules_engine.api import example_log, validate_log
from scoring import services
from scoring.live import story_key
from tests.scoring.helpers import make_fixture, play

NAMES = {"home": "Canada", "away": "Brazil"}
AREA_CODE = re.compile(r"\b(?:[HA]-(?:PEN|LC|RC|FRONT|LM|RM|LCK|RCK)|CENTRE)\b")


def _decide(turn: int, name: str, by: str, choice, notes=(), minute: str = "27") -> dict:
    return {
        "turn": turn,
        "minute": minute,
        "event": {"decide": name, "by": by, "choice": choice},
        "notes": list(notes),
    }


def _roll(turn: int, name: str, by: str, dice, notes=(), minute: str = "27") -> dict:
    return {
        "turn": turn,
        "minute": minute,
        "event": {"roll": name, "by": by, "dice": list(dice)},
        "notes": list(notes),
    }


def _shot(team: str = "home", area: str = "A-PEN") -> dict:
    return {"kind": "goal_attempt", "team": team, "area": area, "minute": "27", "turn": 8}


def test_a_turn_reads_as_one_line() -> None:
    entries = [
        _roll(8, "situation", "home", [4, 2]),
        _decide(8, "action", "home", "movement"),
        _roll(8, "movement", "home", [3, 6]),
        _decide(8, "move", "home", "H-LM>CENTRE"),
        _decide(8, "move", "home", "CENTRE>A-FRONT+ball"),
        _decide(8, "move", "home", "done"),
        _decide(8, "action", "home", "goal_attempt"),
        _roll(8, "goal_attempt", "home", [5], notes=[_shot()]),
        _decide(8, "corner_spot", "home", "A-LCK", notes=[{"kind": "corner", "team": "home"}]),
        _roll(9, "situation", "away", [1, 1], minute="30"),
    ]
    feed = turn_feed(entries, NAMES)
    assert [line["turn"] for line in feed] == [8, 9]
    assert feed[0]["text"] == (
        "Turn 8 · 27' · Canada: movement 3+6, two players forward, shot from the Brazil box — saved, corner"
    )
    assert feed[0]["key"] and not feed[1]["key"]
    # Brazil's moves: one back to its own box, one across its half, one towards the Canada goal.
    back = [_decide(9, "free_move", "away", m) for m in ("A-FRONT>A-PEN", "A-LM>A-RM", "A-LC>A-FRONT")]
    assert turn_feed(back, NAMES)[0]["text"] == "Turn 9 · 27' · Brazil: three players moved, one forward"
    assert feed[1]["text"] == "Turn 9 · 30'"


@pytest.mark.parametrize(
    ("after", "outcome"),
    [
        ([{"kind": "goal", "team": "home", "score": [1, 0]}], "scored"),
        ([{"kind": "goal_denied", "team": "home"}], "scored, but ruled out by the V.A.R."),
        ([{"kind": "corner", "team": "home"}], "saved, corner"),
        ([], "missed"),
    ],
)
def test_a_shot_has_the_outcome_that_followed_it(after, outcome) -> None:
    entries = [
        _roll(8, "goal_attempt", "home", [5], notes=[_shot()]),
        _roll(8, "var", "home", [6, 6], notes=after),
    ]
    assert shot_outcomes(entries) == {(0, 0): outcome}


def test_a_rebound_is_a_save_and_notes_alone_cannot_tell_a_miss() -> None:
    rebound = [_roll(8, "goal_attempt", "home", [4], notes=[_shot()]), _roll(8, "rebound", "both", [2, 5])]
    assert shot_outcomes(rebound) == {(0, 0): "saved, rebound cleared"}
    scored = [*rebound[:1], _roll(8, "rebound", "both", [6, 1], notes=[{"kind": "goal", "team": "home"}])]
    assert shot_outcomes(scored) == {(0, 0): "scored from the rebound"}
    # The live panel's key moments come from the engine's notes only.
    notes_only = [{"turn": 8, "minute": "27", "event": None, "notes": [_shot()]}]
    assert shot_outcomes(notes_only) == {(0, 0): "no goal"}
    # A shot does not carry over into the next turn's happenings.
    later = [
        *notes_only,
        {"turn": 9, "minute": "29", "event": None, "notes": [{"kind": "corner", "team": "home"}]},
    ]
    assert shot_outcomes(later) == {(0, 0): "no goal"}


def test_key_moments_name_shots_cards_and_var_checks() -> None:
    entries = [
        _roll(8, "goal_attempt", "home", [5], notes=[_shot()]),
        _roll(8, "var", "home", [6, 6], notes=[{"kind": "goal_denied", "team": "home"}]),
        _roll(9, "yellow_test", "away", [1], notes=[{"kind": "yellow", "team": "away", "minute": "29"}]),
        _roll(10, "goal_attempt", "away", [6], notes=[_shot("away", "H-FRONT")]),
        _roll(
            10,
            "situation",
            "away",
            [6],
            notes=[{"kind": "goal", "team": "away", "score": [0, 1], "minute": "31"}],
        ),
    ]
    moments = key_moments(entries, NAMES)
    texts = [m["text"] for m in moments]
    assert texts == [
        "27' Canada shot from the Brazil box — scored, but ruled out by the V.A.R.",
        "27' V.A.R. check: goal ruled out",
        "29' Yellow card for Brazil",
        "31' GOAL for Brazil! Canada 0–1 Brazil",
    ]
    assert [m["kind"] for m in moments] == ["goal_attempt", "var", "yellow", "goal"]


def test_key_moments_name_saves_misses_red_cards_injuries_and_substitutions() -> None:
    entries = [
        _roll(8, "goal_attempt", "home", [4], notes=[_shot()]),
        _decide(8, "corner_spot", "home", "A-LCK", notes=[{"kind": "corner", "team": "home"}]),
        _roll(9, "goal_attempt", "away", [2], notes=[_shot("away", "H-FRONT")]),
        _roll(9, "goal_attempt", "away", [6], notes=[_shot("away", "H-PEN")]),
        _roll(
            9,
            "situation",
            "away",
            [6],
            notes=[{"kind": "goal", "team": "away", "score": [0, 1], "minute": "28"}],
        ),
        _roll(
            10,
            "special_event",
            "both",
            [3, 6],
            notes=[{"kind": "special_event", "event": "defenders_rude_foul", "dice": [3, 6], "minute": "31"}],
        ),
        _roll(
            10,
            "red_card",
            "away",
            [6],
            notes=[
                {"kind": "yellow", "team": "away", "why": "defenders_rude_foul", "minute": "31"},
                {"kind": "red", "team": "away", "red": "second_yellow", "minute": "31"},
            ],
        ),
        _roll(
            10,
            "injury",
            "home",
            [2],
            notes=[
                {"kind": "injury", "team": "home", "why": "defenders_rude_foul", "out_minutes": 20},
                {"kind": "injury", "team": "away", "why": "streaker", "permanent": True},
            ],
        ),
        _decide(
            11,
            "substitution",
            "home",
            "fresh:midfield",
            notes=[{"kind": "substitution", "team": "home", "type": "fresh:midfield", "minute": "60"}],
        ),
    ]
    for entry in entries:
        for note in entry["notes"]:
            note.setdefault("minute", entry["minute"])
    texts = [m["text"] for m in key_moments(entries, NAMES)]
    assert texts == [
        "27' Canada shot from the Brazil box — saved, corner",
        "27' Brazil shot from the Canada edge of the box — missed",
        "28' GOAL for Brazil! Canada 0–1 Brazil",  # the scored shot is told by its goal
        "31' Special event: rough foul by the defending team",
        "31' Yellow card for Brazil (rough foul by the defending team)",
        "31' Red card for Brazil",
        "27' Canada player injured, out for 20 minutes",
        "27' Brazil player injured, out for the rest of the match",
        "60' Canada substitution: a fresh player in midfield",
    ]
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", " ".join(texts))  # no engine names


def _eventful_example() -> dict[str, object]:
    """An example match with a goal or a card to mark (the first seed that has one: rule changes
    move what a given seed plays)."""
    for seed in range(7, 40):
        log = example_log(seed)
        report = validate_log(log)
        result = report.result
        assert result is not None
        if result.score != (0, 0) or result.home.yellow_cards + result.away.yellow_cards:
            return log
    raise AssertionError("no example match with a goal or a card")


def test_the_replay_tells_the_whole_match_by_turn_with_marks() -> None:
    log = _eventful_example()
    replay = replay_frames(log)
    frames, feed = replay["frames"], replay["feed"]
    turns = [line["turn"] for line in feed]
    assert turns == sorted(set(turns)) and turns[-1] == frames[-1]["turn"]
    # each line's first frame is in its turn, and the lines say what the teams did
    assert all(frames[line["first"]]["turn"] == line["turn"] for line in feed)
    assert sum(bool(re.search(r"(movement|positioning|pressing) \d\+\d", line["text"])) for line in feed) > 20
    goals = [n for f in frames for n in f["notes"] if n["kind"] == "goal"]
    cards = [n for f in frames for n in f["notes"] if n["kind"] in ("yellow", "red")]
    marked = [m["kind"] for m in replay["marks"]]
    assert marked.count("goal") + marked.count("yellow") + marked.count("red") == len(goals) + len(cards) >= 1
    # shots without a goal and half time are marked too (issue 33, item 7)
    assert marked.count("half_time") == 1 and "goal_attempt" in marked
    assert len(replay["marks"]) == sum(m["kind"] in MARK_KINDS for m in replay["moments"])
    for mark in replay["marks"]:
        assert any(n["kind"] == mark["kind"] for n in frames[mark["i"]]["notes"])
    assert any(
        re.fullmatch(r"Half time: Otto's Blues \d–\d Santeri's Yellows", m["text"]) for m in replay["moments"]
    )
    shots = [m for m in replay["moments"] if m["kind"] == "goal_attempt"]
    assert shots and all(re.search(r" — (missed|saved|scored)", m["text"]) for m in shots)
    shown = [line["text"] for line in feed] + [m["text"] for m in replay["moments"]]
    assert not AREA_CODE.findall(" ".join(shown))
    # nor an engine name: "new_talent_ct", a card "(defenders_rude_foul)"
    assert not re.findall(r"\b[a-z]+_[a-z_]+\b|\b[cd]t\b", " ".join(shown))
    # The live panel's story is the same story, counted in events instead of frames.
    story = match_story(log)
    assert [line["text"] for line in story["feed"]] == [line["text"] for line in feed]


@pytest.mark.django_db
def test_the_live_panel_reads_the_story_once_per_version() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, {"home": s.home_user, "away": s.away_user}, until=60)
    client = Client()
    response = client.get(f"/score/{session.id}/story.json")
    assert response.status_code == 200
    story = response.json()
    assert story["version"] == state["version"] and story["feed"][-1]["turn"] == state["state"]["turn"]
    assert cache.get(story_key(session.id, state["version"])) == response.content
    etag = response["ETag"]
    assert client.get(f"/score/{session.id}/story.json", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get("/score/999999/story.json").status_code == 404


@pytest.mark.django_db
def test_the_story_of_an_unconfirmed_result_is_the_clubs_only() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.home_user})
    url = f"/score/{session.id}/story.json"
    refused = Client().get(url)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "result_unconfirmed"
    club = Client()
    club.force_login(s.away_user)
    story = club.get(url)
    assert story.status_code == 200 and story.json()["feed"]
    assert cache.get(story_key(session.id, story.json()["version"])) is None


def _whistle(turn: int, kind: str, minute: str, score=(1, 1)) -> dict:
    return _roll(
        turn, "situation", "home", [3, 3], notes=[{"kind": kind, "score": list(score)}], minute=minute
    )


def test_the_whistles_are_marked_and_extra_times_half_time_is_said_once_as_such() -> None:
    entries = [
        _whistle(15, "half_time", "45"),
        _whistle(30, "extra_time", "90"),
        _whistle(35, "half_time", "105"),
        _whistle(40, "full_time", "120"),
    ]
    texts = [line["text"] for line in turn_feed(entries, NAMES)]
    assert texts[0].endswith("· half time") and texts[1].endswith("· extra time")
    assert texts[2].endswith("· extra-time half time") and texts[3].endswith("· full time")
    # a whistle is the match's, not the team whose roll it followed
    assert not any("Canada: half time" in t or "Canada: full time" in t for t in texts)
    moments = [m["text"] for m in key_moments(entries, NAMES)]
    assert moments == [
        "Half time: Canada 1–1 Brazil",
        "Extra time: Canada 1–1 Brazil",
        "Extra time, half time: Canada 1–1 Brazil",
        "Full time: Canada 1–1 Brazil",
    ]
    assert sum(m.startswith("Half time") for m in moments) == 1


def test_a_note_already_in_words_is_not_repeated_in_its_moment() -> None:
    # the replay's notes carry their own text; the key moment is the note's, said once
    note = {
        "kind": "coach_sent_off",
        "team": "away",
        "minute": "70",
        "turn": 23,
        "text": "70' Brazil: coach sent off",
    }
    (moment,) = key_moments([_roll(23, "situation", "away", [6, 6], notes=[note], minute="70")], NAMES)
    assert moment["text"] == "70' Brazil coach sent off (fiery coach, A11)"
    assert "(text" not in moment["text"]


def test_a_replay_step_with_a_goal_says_the_goal_not_no_goal() -> None:
    # a long match's replay step spans two events: the shot's roll and the goal it scored
    shot = {"kind": "goal_attempt", "team": "home", "area": "A-PEN", "minute": "84", "turn": 28}
    goal = {"kind": "goal", "team": "home", "minute": "84", "turn": 28, "score": [2, 1]}
    notes = replay_notes(SimpleNamespace(log=[shot, goal]), 0, NAMES)
    texts = [n["text"] for n in notes if n["text"]]
    assert texts == ["84' GOAL for Canada! Canada 2–1 Brazil"]
