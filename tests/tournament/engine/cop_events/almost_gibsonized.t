# almost_gibsonized: the event of Woogles' COP test request CreateAlmostGibsonizedPairRequest
# (woogles-io/liwords, pkg/pair/testutils/testutils.go, commit b790d24), written as
# a tsh division: Woogles' data, kept as test data for Spread's COP tests.
JDH                        0 18 3 14 4 6 15 17 5; 307 459 350 374 310 409 329 350
whatnoloan                 0 17 13 16 8 19 10 6 8; 525 418 498 500 458 499 475 496
awesomeusername            0 16 1 7 15 12 4 11 6; 360 191 414 364 406 268 293 320
condorave                  0 15 8 17 1 10 3 19 18; 463 362 432 401 358 430 461 352
Brainiac_614               0 14 12 19 18 17 16 8 1; 451 378 352 425 448 461 388 355
ArcG3                      0 13 9 11 7 1 18 2 3; 276 286 284 349 324 332 308 396
CavemenRoad                0 12 14 3 6 0 13 15 9; 346 314 299 334 50 411 322 387
zman                       0 11 4 10 2 18 19 5 2; 516 388 414 438 442 430 443 382
equilibria                 0 10 6 18 0 15 14 13 7; 303 220 305 50 156 277 287 292
ElishasDad                 0 9 16 8 11 4 2 18 14; 409 277 360 397 359 326 341 417
bynak                      0 8 15 6 10 16 17 3 19; 457 452 383 317 368 352 430 280
aboocher                   0 7 5 13 19 3 0 0 0; 429 349 448 240 224 -50 -50 -50
Parkereon                  0 6 2 12 16 14 7 9 17; 377 287 238 285 297 311 290 390
June9437                   0 5 7 1 17 13 9 16 10; 343 387 331 231 552 352 445 327
k8e                        0 4 11 0 3 9 1 7 16; 312 304 50 285 206 331 363 366
Smochi                     0 3 10 2 13 11 5 14 15; 431 227 340 407 388 455 425 367
Seahawk12                  0 2 0 4 14 5 11 1 13; 285 50 393 330 297 277 209 284
mmmmice                    0 1 19 9 5 8 6 10 4; 457 381 462 460 295 394 385 329
Merris                     0 0 18 5 12 2 8 4 11; 50 400 443 594 419 307 359 401
