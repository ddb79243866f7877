from pasur_cli.cli import main

main(prog_name="pasur")
