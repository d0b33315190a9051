"""The results workflow: submit → (log validated) → confirm or dispute → admin resolve / override.

One module a concept: ``submissions`` (a club reports, the opponent confirms or disputes),
``corrections`` (staff resolve, override, award, clear, void), ``system`` (simulated and awarded
results from the tasks), ``log_checks`` (a turn log's checks and claim, run by the validation
task and the live scorer) over ``validation`` (the engine's verdict on a turn log), over ``recording``
(writing or clearing a result and what follows) and ``shared`` (the fixture lock, the checks, the
audit trail). The services are named here for the views, the API, the admin, the console and the
scorer, which call them as ``matches.services.result_*``.
"""

from matches.services.corrections import (
    result_award,
    result_clear,
    result_override,
    result_resolve,
    result_void,
    results_round_enter,
)
from matches.services.shared import CardInput
from matches.services.submissions import (
    result_confirm,
    result_dispute,
    result_score_check,
    result_submit,
)
from matches.services.system import result_record_system
from matches.services.validation import cards_from_derived, submission_validation_record

__all__ = [
    "CardInput",
    "cards_from_derived",
    "result_award",
    "result_clear",
    "result_confirm",
    "result_dispute",
    "result_override",
    "result_record_system",
    "result_resolve",
    "result_score_check",
    "result_submit",
    "result_void",
    "results_round_enter",
    "submission_validation_record",
]
