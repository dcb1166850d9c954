"""What every wheel of the package must hold (the wheel ``make dist`` builds from the sdist, and the one a
user installs): the shipped model, a training config, the browser page and the type marker."""

WHEEL_FILES = (
    "boardgames/models/dorix_2p/model.zip",
    "boardgames/training/configs/dorix.toml",
    "boardgames/play/web/static/index.html",
    "boardgames/envs/py.typed",
)
