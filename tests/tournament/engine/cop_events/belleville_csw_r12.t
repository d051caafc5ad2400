# belleville_csw_r12: the event of Woogles' COP test request CreateBellevilleCSWAfterRound12PairRequest
# (woogles-io/liwords, pkg/pair/testutils/testutils.go, commit b790d24), written as
# a tsh division: Woogles' data, kept as test data for Spread's COP tests.
Matthew O'Connor           0 7 5 12 10 11 4 9 6 2 8 3 4; 543 403 461 595 588 411 478 524 405 513 441 417
Jason Keller               0 12 9 3 7 4 6 8 10 1 11 5 5; 365 450 511 434 381 462 414 570 553 465 447 379
Joshua Castellano          0 11 7 2 5 6 8 10 12 4 9 1 8; 536 439 380 511 390 381 422 492 380 483 374 479
Matthew Tunnicliffe        0 10 11 5 9 2 1 6 8 3 12 7 1; 451 543 453 501 494 449 537 396 509 418 459 427
Jason Ubeika               0 9 1 4 3 8 10 12 11 6 7 2 2; 363 624 457 326 438 510 373 423 495 556 472 464
Jason Broersma             0 8 12 7 11 3 2 4 1 5 10 9 12; 448 443 505 306 352 355 352 302 428 436 383 406
Terry Kang                 0 1 3 6 2 10 12 11 9 8 5 4 10; 378 440 344 381 395 442 467 425 458 395 437 400
George MacAulay            0 6 10 9 12 5 3 2 4 7 1 11 3; 473 342 497 324 578 476 399 448 426 374 517 385
Yvonne Lobo                0 5 2 8 4 12 11 1 7 10 3 6 11; 463 449 364 380 430 349 424 375 486 370 379 414
Sue Tremblay               0 4 8 11 1 7 5 3 2 9 6 12 7; 343 490 443 370 485 413 443 283 476 384 458 494
David Nwabor               0 3 4 10 6 1 9 7 5 12 2 8 9; 284 335 300 412 324 547 376 533 335 432 339 413
Roger Cullman              0 2 6 1 8 9 7 5 3 11 4 10 6; 461 342 295 405 386 398 404 339 407 351 378 432
