"""Names of the OpenAPI enum components whose field names collide ("status", "source").

Referenced by import string from SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"], so this module (and the
models it reads) is imported only when the schema is generated, not while settings load.
"""

from __future__ import annotations

from matches.models import CardKind, Result, ResultSubmission
from tournaments.models import Competition, Fixture, Stage, TeamSkill

COMPETITION_STATUS = Competition.Status.choices
STAGE_STATUS = Stage.Status.choices
FIXTURE_STATUS = Fixture.Status.choices
SUBMISSION_STATUS = ResultSubmission.Status.choices
SUBMISSION_VALIDATION = ResultSubmission.Validation.choices
RESULT_SOURCE = Result.Source.choices
TEAM_SKILL_SOURCE = TeamSkill.Source.choices
STAGE_KIND = Stage.Kind.choices
CARD_KIND = CardKind.choices
