from interviewer.cli import main

main()
