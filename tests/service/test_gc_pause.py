"""kernel.gc_pause: the cyclic collector is off inside a pause and as it was after the last one."""

from __future__ import annotations

import gc
import threading

import pytest

from kernel.gc_pause import cyclic_gc_paused


@pytest.fixture(autouse=True)
def _collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_off_inside_and_back_on_after():
    with cyclic_gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_nested_pauses_resume_with_the_outermost():
    with cyclic_gc_paused():
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_still_resumes_the_collector():
    with pytest.raises(ValueError), cyclic_gc_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_process_stays_off():
    gc.disable()
    with cyclic_gc_paused():
        pass
    assert not gc.isenabled()


def test_overlapping_pauses_of_two_threads_resume_with_the_last():
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with cyclic_gc_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    with cyclic_gc_paused():
        thread.start()
        assert inside.wait(5)
    # This thread's pause ended first: the other one is still inside its own.
    assert not gc.isenabled()
    release.set()
    thread.join(5)
    assert gc.isenabled()
