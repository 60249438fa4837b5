"""Suite-wide options."""


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens", action="store_true", default=False,
        help="rewrite the golden OLED images from the current renderer (deliberately!)")
