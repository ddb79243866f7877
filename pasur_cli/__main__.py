from pasur_cli.cli.app import run

run()
