# default: the event of Woogles' COP test request CreateDefaultPairRequest
# (woogles-io/liwords, pkg/pair/testutils/testutils.go, commit b790d24), written as
# a tsh division: Woogles' data, kept as test data for Spread's COP tests.
Alice                      0 ; 
Bob                        0 ; 
Charlie                    0 ; 
Dave                       0 ; 
Eric                       0 ; 
Frank                      0 ; 
Grace                      0 ; 
Holly                      0 ; 
