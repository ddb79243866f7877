from pasur_cli.cli import run

run()
