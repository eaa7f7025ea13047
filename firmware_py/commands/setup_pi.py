"""`dvonn-board setup-pi [--profile NAME|FILE] [--root DIR] [--dry-run]`: set a Raspberry Pi up
to run the board at boot, the way hw/README.md describes (`dvonn_hw.setup_pi`).

Writes /etc/dvonn-board/board.toml (kept if present), the systemd unit (a dedicated user,
StateDirectory=, ConfigurationDirectory=), the udev rule (/dev/dvonn-scanner, kept from
ModemManager) and what /boot/firmware/config.txt needs, printing each step. Run it with sudo
from the installed dvonn-board (its own path goes into the unit). --dry-run only prints;
--root writes under another folder (an SD card's root file system) and prints the commands
to run on the Pi.
"""

from __future__ import annotations

import sys

ORDER = 75


def register(subparsers) -> None:
    p = subparsers.add_parser("setup-pi", help="install the systemd unit, udev rule and profile",
                              description=__doc__.split("\n\n")[1])
    p.add_argument("--profile", default="default",
                   help="the board's profile: default, direct, direct-pi5 or a file (default: default)")
    p.add_argument("--root", default="/", metavar="DIR", help="file system root to write under (default: /)")
    p.add_argument("--dry-run", action="store_true", help="print what would be written and run")
    p.add_argument("--user", default="dvonn", help="the system user the service runs as (default: dvonn)")
    p.add_argument("--executable", default=None, metavar="PATH",
                   help="the dvonn-board command the unit starts (default: this one)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dvonn_hw import setup_pi
    from dvonn_hw.profile import parse_profile

    from ..errors import ProfileError

    try:
        text = setup_pi.profile_text(args.profile)
        profile = parse_profile(text, str(args.profile))
    except OSError as e:
        print(f"dvonn-board setup-pi: --profile {args.profile}: {e.strerror or e}", file=sys.stderr)
        return 2
    except ProfileError as e:
        print(f"dvonn-board setup-pi: profile: {e}", file=sys.stderr)
        return 2
    executable = args.executable or setup_pi.installed_executable()
    plan = setup_pi.make_plan(profile, executable, text, user=args.user)
    return setup_pi.apply(plan, args.root, args.dry_run)
