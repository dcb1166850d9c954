"""Checks shared by the web server's tests (tests/play/web)."""


def refused(response, status: int, *words) -> str:
    """The error message of ``response``, which must have the status ``status`` and name every one of ``words``."""
    assert response.status_code == status, (response.status_code, response.text)
    message = response.json()["error"]
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message
